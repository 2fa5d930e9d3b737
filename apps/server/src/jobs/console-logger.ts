import type { Config } from '../config.ts';
import type { JobLogger } from './worker.ts';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

/** JSON lines on stdout for the standalone worker, shaped like the server's pino logs. */
export function consoleLogger(level: Config['logLevel']): JobLogger {
  const min = level === 'silent' ? Infinity : LEVELS.indexOf(level);
  const line = (lvl: string, obj: object, msg: string) => {
    if (LEVELS.indexOf(lvl) < min) return;
    const fields = Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, v instanceof Error ? v.message : v]));
    process.stdout.write(`${JSON.stringify({ level: lvl, time: Date.now(), ...fields, msg })}\n`);
  };
  return { info: (o, m) => line('info', o, m), error: (o, m) => line('error', o, m) };
}
