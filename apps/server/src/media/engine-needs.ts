/** What the ladder and the accepted upload formats need of an engine, checked at start-up. */
export const ENGINE_NEEDS = {
  decoders: ['h264', 'hevc', 'vp8', 'vp9', 'av1', 'mpeg4', 'aac', 'mp3', 'opus', 'vorbis', 'ac3'],
  encoders: ['libx264', 'aac', 'png'],
  muxers: ['hls', 'mp4', 'image2', 'null'],
  demuxers: ['mov', 'matroska', 'avi'],
  filters: ['scale', 'split', 'fps', 'transpose', 'zscale', 'tonemap', 'tile', 'trim', 'aformat', 'ssim', 'framestep'],
} as const;
