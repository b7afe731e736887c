/**
 * The server of the per-request benchmark, run in its own process: answers every GET with a list
 * page of 20 customers and every POST with a quote, both built from the document's own examples,
 * and prints its port.
 *
 *   npx tsx scripts/bench/canned-server.ts
 */
// @ts-nocheck

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { responseExample } from '../../test/helpers/document';

const customer = responseExample('listCustomers', '200').data[0];
const listPage = Buffer.from(JSON.stringify({ ...responseExample('listCustomers', '200'), data: Array.from({ length: 20 }, () => customer) }));
const quote = Buffer.from(JSON.stringify(responseExample('createQuote', '200')));

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const body = req.method === 'GET' ? listPage : quote;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, 'x-request-id': 'req_bench' });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port));
process.stdin.on('end', () => server.close(() => process.exit(0)));
process.stdin.resume();
