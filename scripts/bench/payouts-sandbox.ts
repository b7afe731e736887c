/**
 * The sandbox of the payout benchmark, run in its own process (as the service is: elsewhere), so that
 * the client process measured holds only the runner or the pool and the SDK. Listens on 127.0.0.1,
 * prints its port, and exits when its stdin ends. Faults are set over HTTP (`PUT /_sandbox/faults`). A
 * line `gc` on stdin collects its garbage at once and answers `gc done` (between two measured runs, after
 * `POST /_sandbox/reset`: the state the last run left is not collected in the middle of the next).
 *
 *   npx tsx scripts/bench/payouts-sandbox.ts
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadSandbox } from './dist';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

// The sandbox as built (dist/sandbox.js), as `crossborder-sdk sandbox` runs it.
const { createSandbox } = await loadSandbox();
const sandbox = createSandbox();
const server = await sandbox.listen(0, '127.0.0.1');
console.log(new URL(server.url).port);
process.stdin.on('end', () => {
  void sandbox.close().then(() => process.exit(0));
});
let pending = '';
process.stdin.on('data', (chunk: Buffer) => {
  pending += chunk.toString();
  for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
    const line = pending.slice(0, nl).trim();
    pending = pending.slice(nl + 1);
    if (line === 'gc') {
      gc();
      console.log('gc done');
    }
  }
});
process.stdin.resume();
