/**
 * The server of the per-request benchmarks, run in its own process: answers every GET with a list
 * page of 20 customers and every POST with a quote, both built from the document's own examples,
 * `--delay` ms after the request has arrived (default 0: at once; 1 where calls are measured as a
 * real service answers them, after some work). Prints its port; exits when its stdin ends.
 *
 *   npx tsx scripts/bench/canned-server.ts [--delay 1]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { responseExample } from '../../test/helpers/document';

const i = process.argv.indexOf('--delay');
const delay = i > 0 ? Number(process.argv[i + 1]) : 0;
if (!Number.isFinite(delay) || delay < 0) throw new Error(`canned-server: --delay must be a number of ms >= 0, got ${process.argv[i + 1]}`);
const customer = responseExample('listCustomers', '200').data[0];
const listPage = Buffer.from(JSON.stringify({ ...responseExample('listCustomers', '200'), data: Array.from({ length: 20 }, () => customer) }));
const quote = Buffer.from(JSON.stringify(responseExample('createQuote', '200')));

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const body = req.method === 'GET' ? listPage : quote;
    const answer = () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, 'x-request-id': 'req_bench' });
      res.end(body);
    };
    if (delay === 0) answer();
    else setTimeout(answer, delay);
  });
});
server.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port));
process.stdin.on('end', () => server.close(() => process.exit(0)));
process.stdin.resume();
