/**
 * Pushes a prepared FLV file to an RTMP URL in real time, copying its packets (no encode): an OBS
 * stand-in whose own CPU does not compete with the live it feeds. `tsx live-push.ts <file> <url>`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Demuxer, Muxer } from 'node-av/api';

const [file, url] = process.argv.slice(2);
if (!file || !url) throw new Error('usage: live-push.ts <file.flv> <rtmp url>');
const input = await Demuxer.open(file);
const mux = await Muxer.open(url, { format: 'flv' });
const out = new Map(input.streams.map((s) => [s.index, mux.addStream(s)]));
const started = Date.now();
for (const packet of input.packetsSync()) {
  if (!packet) break;
  const tb = input.getStream(packet.streamIndex)!.timeBase;
  const at = packet.dts === null ? 0 : (Number(packet.dts) * tb.num * 1000) / tb.den;
  const wait = at - (Date.now() - started);
  if (wait > 0) await sleep(wait);
  mux.writePacketSync(packet, out.get(packet.streamIndex)!);
}
await mux.close();
process.exit(0);
