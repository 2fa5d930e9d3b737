/**
 * An encoder with a clock in its picture, for glass-to-glass latency: each 640x360 30 fps frame is
 * drawn here in Node (no fonts: the wall-clock time in milliseconds as black and white blocks, see
 * CLOCK below) at the moment it is "filmed", encoded by the bundled engine as OBS would (x264
 * zerolatency, a keyframe every `keyint` seconds, silent AAC) and pushed over RTMP in real time.
 * `tsx live-clock-push.ts <rtmp url> <seconds> <keyint seconds>`; exits 0 when all was sent.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Encoder, Muxer } from 'node-av/api';
import { AV_CHANNEL_LAYOUT_MONO, AV_LOG_QUIET, AV_PIX_FMT_YUV420P, AV_SAMPLE_FMT_FLTP } from 'node-av/constants';
import { Frame, Log, type Packet } from 'node-av/lib';
import { CLOCK, clockBits } from './live-clock.ts';

Log.setLevel(AV_LOG_QUIET);

const [url, secondsArg, keyintArg] = process.argv.slice(2);
if (!url || !secondsArg || !keyintArg) throw new Error('usage: live-clock-push.ts <rtmp url> <seconds> <keyint seconds>');
const seconds = Number(secondsArg);
const FPS = 30;
const SAMPLE_RATE = 44_100;
const AUDIO_FRAME = 1024;
const gop = String(Math.round(FPS * Number(keyintArg)));

/** A Y plane in grey with the clock's blocks, then neutral chroma (I420). */
function picture(ms: number): Buffer {
  const { width, height } = CLOCK;
  const buf = Buffer.alloc((width * height * 3) / 2, 128);
  buf.fill(60, 0, width * height);
  clockBits(ms).forEach((row, r) =>
    row.forEach((bit, c) => {
      const x0 = c * CLOCK.block;
      const y0 = CLOCK.top + r * CLOCK.block;
      for (let y = y0; y < y0 + CLOCK.block; y++) buf.fill(bit ? 235 : 16, y * width + x0, y * width + x0 + CLOCK.block);
    }),
  );
  return buf;
}

async function main() {
  const venc = await Encoder.create('libx264' as never, {
    bitrate: 1_000_000,
    options: { preset: 'ultrafast', tune: 'zerolatency', g: gop, keyint_min: gop, sc_threshold: '0', threads: '1' },
  });
  const aenc = await Encoder.create('aac' as never, { bitrate: 64_000 });
  const mux = await Muxer.open(url!, { format: 'flv' });
  const vi = mux.addStream(venc);
  const ai = mux.addStream(aenc);
  const drain = (enc: Encoder, index: number) => {
    for (;;) {
      const p = enc.receiveSync();
      if (!p || typeof p !== 'object') return;
      mux.writePacketSync(p as Packet, index);
    }
  };
  const silence = Buffer.alloc(AUDIO_FRAME * 4);
  let audioPts = 0;
  const started = Date.now();
  for (let i = 0; i < seconds * FPS; i++) {
    const wait = (i * 1000) / FPS - (Date.now() - started);
    if (wait > 0) await sleep(wait);
    const frame = Frame.fromVideoBuffer(picture(Date.now()), { width: CLOCK.width, height: CLOCK.height, format: AV_PIX_FMT_YUV420P, timeBase: { num: 1, den: FPS }, pts: BigInt(i) });
    venc.encodeSync(frame);
    frame.unref();
    drain(venc, vi);
    for (; (audioPts / SAMPLE_RATE) * FPS <= i; audioPts += AUDIO_FRAME) {
      const a = Frame.fromAudioBuffer(silence, { nbSamples: AUDIO_FRAME, format: AV_SAMPLE_FMT_FLTP, sampleRate: SAMPLE_RATE, channelLayout: AV_CHANNEL_LAYOUT_MONO, timeBase: { num: 1, den: SAMPLE_RATE }, pts: BigInt(audioPts) });
      aenc.encodeSync(a);
      a.unref();
      drain(aenc, ai);
    }
  }
  for (const [enc, index] of [[venc, vi], [aenc, ai]] as const) {
    enc.encodeSync(null);
    drain(enc, index);
  }
  await mux.close();
}

try {
  await main();
  process.exit(0);
} catch (err) {
  process.stderr.write(`live-clock-push: ${(err as Error).message}\n`);
  process.exit(2);
}
