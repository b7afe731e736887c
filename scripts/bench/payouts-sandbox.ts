/**
 * The sandbox of the payout benchmark, run in its own process (as the service is: elsewhere), so that
 * the client process measured holds only the runner or the pool and the SDK. Listens on 127.0.0.1,
 * prints its port, and exits when its stdin ends. Faults are set over HTTP (`PUT /_sandbox/faults`).
 *
 *   npx tsx scripts/bench/payouts-sandbox.ts
 */
import { createSandbox } from '../../src/sandbox/index';

const sandbox = createSandbox();
const server = await sandbox.listen(0, '127.0.0.1');
console.log(new URL(server.url).port);
process.stdin.on('end', () => {
  void sandbox.close().then(() => process.exit(0));
});
process.stdin.resume();
