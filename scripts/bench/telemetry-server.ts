/**
 * The server of the telemetry targets (scripts/bench/telemetry-floor.ts), run in its own process: the
 * canned server's answers (a list page of 20 customers for every GET, a quote for every POST, from the
 * document's examples), each sent `--delay` ms (default 1) after the request has arrived, as a real
 * service answers after some work. Prints its port; exits when its stdin ends.
 *
 *   npx tsx scripts/bench/telemetry-server.ts [--delay 1]
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { responseExample } from '../../test/helpers/document';

const i = process.argv.indexOf('--delay');
const delay = i > 0 ? Number(process.argv[i + 1]) : 1;
const customer = responseExample('listCustomers', '200').data[0];
const listPage = Buffer.from(JSON.stringify({ ...responseExample('listCustomers', '200'), data: Array.from({ length: 20 }, () => customer) }));
const quote = Buffer.from(JSON.stringify(responseExample('createQuote', '200')));

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const body = req.method === 'GET' ? listPage : quote;
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, 'x-request-id': 'req_bench' });
      res.end(body);
    }, delay);
  });
});
server.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port));
process.stdin.on('end', () => server.close(() => process.exit(0)));
process.stdin.resume();
