export * from './job.ts';
export * from './ladder.ts';
export * from './mp4-boxes.ts';
export * from './probe.ts';
export * from './progress.ts';
export * from './storyboard.ts';
export * from './transcode.ts';
export * from './clips.ts';
