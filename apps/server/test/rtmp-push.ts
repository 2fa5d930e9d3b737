/**
 * Test media for lives: a test pattern and a tone, made and encoded by the bundled engine and pushed
 * to an RTMP URL in real time, as an encoder such as OBS does. Run as a child process:
 * `node --import tsx rtmp-push.ts <rtmp url> <seconds> [h264|flv1]` (flv1: a codec lives refuse).
 * Exits 0 when everything was sent, 2 when the server refused or cut the stream.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Decoder, Demuxer, Encoder, Muxer } from 'node-av/api';
import { AV_LOG_QUIET } from 'node-av/constants';
import { Log, type Packet } from 'node-av/lib';

Log.setLevel(AV_LOG_QUIET);

const [url, secondsArg = '5', codec = 'h264'] = process.argv.slice(2);
if (!url) throw new Error('usage: rtmp-push.ts <rtmp url> <seconds> [h264|flv1]');
const seconds = Number(secondsArg);

async function main() {
  const graph = `testsrc2=size=320x180:rate=30:duration=${seconds}[out0];sine=frequency=440:sample_rate=44100:duration=${seconds},aformat=sample_fmts=fltp:channel_layouts=stereo[out1]`;
  const input = await Demuxer.open(graph, { format: 'lavfi' });
  const v = input.video()!;
  const a = input.audio()!;
  const vdec = await Decoder.create(v);
  const adec = await Decoder.create(a);
  const venc = await Encoder.create((codec === 'flv1' ? 'flv' : 'libx264') as never, {
    bitrate: 300_000,
    options: codec === 'flv1' ? { g: '30' } : { preset: 'ultrafast', tune: 'zerolatency', g: '30', threads: '1' },
  });
  const aenc = await Encoder.create('aac' as never, { bitrate: 64_000, autoResample: true });
  const mux = await Muxer.open(url!, { format: 'flv' });
  const vi = mux.addStream(venc);
  const ai = mux.addStream(aenc);
  const started = Date.now();
  const drain = (enc: Encoder, index: number) => {
    for (;;) {
      const p = enc.receiveSync();
      if (!p || typeof p !== 'object') return;
      mux.writePacketSync(p as Packet, index);
    }
  };
  for (const packet of input.packetsSync()) {
    const isVideo = packet?.streamIndex === v.index;
    const dec = packet ? (isVideo ? vdec : adec) : null;
    const pairs: [Decoder, Encoder, number][] = dec ? [[dec, isVideo ? venc : aenc, isVideo ? vi : ai]] : [[vdec, venc, vi], [adec, aenc, ai]];
    for (const [d, enc, index] of pairs) {
      for (const frame of d.decodeAllSync(packet)) {
        if (isVideo && frame.pts !== null) {
          // Real time, as a camera would: a frame is sent no earlier than its time.
          const at = (Number(frame.pts) * v.timeBase.num * 1000) / v.timeBase.den;
          const wait = at - (Date.now() - started);
          if (wait > 0) await sleep(wait);
        }
        enc.encodeSync(frame);
        drain(enc, index);
      }
      if (!packet) {
        enc.encodeSync(null);
        drain(enc, index);
      }
    }
    if (!packet) break;
  }
  await mux.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  },
);
