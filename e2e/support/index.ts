export * from './api.ts';
export * from './env.ts';
export * from './media.ts';
export * from './outbox.ts';
export * from './screenshots.ts';
export * from './ui.ts';
export * from './upload.ts';
