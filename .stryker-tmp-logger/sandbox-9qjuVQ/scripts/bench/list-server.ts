/**
 * A list endpoint for the pagination benchmark, run as its own process so that the server's work
 * and memory are not counted against the client: serves N numbered customers in pages of 100 at
 * /2025-10-13/customers and prints its port.
 *
 *   npx tsx scripts/bench/list-server.ts 100000
 */
// @ts-nocheck

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const total = Number(process.argv[2] ?? 100_000);
const PAGE = 100;

function customer(n: number) {
  return {
    id: `Customer:019542f5-b3e7-1d02-0000-${String(n).padStart(12, '0')}`,
    platformCustomerId: `p-${n}`,
    customerType: 'INDIVIDUAL',
    umaAddress: `$customer${n}@platform.example`,
    region: 'US',
    currencies: ['USD'],
    kycStatus: 'APPROVED',
    fullName: 'Ada Lovelace',
    birthDate: '1990-12-10',
    nationality: 'GB',
    address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701', country: 'US' },
    createdAt: '2025-10-13T12:00:00Z',
    updatedAt: '2025-10-13T12:00:00Z',
  };
}

// Pages are rendered once, so each request costs the server the same for every client.
const pages = new Map<number, Buffer>();
for (let start = 0; start < total; start += PAGE) {
  const data = Array.from({ length: Math.min(PAGE, total - start) }, (_, i) => customer(start + i));
  const hasMore = start + PAGE < total;
  pages.set(start, Buffer.from(JSON.stringify({ data, hasMore, ...(hasMore ? { nextCursor: `c${start + PAGE}` } : {}), totalCount: total })));
}
const server = createServer((req, res) => {
  const cursor = new URL(req.url!, 'http://x').searchParams.get('cursor');
  const body = pages.get(cursor ? Number(cursor.slice(1)) : 0);
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port));
process.stdin.on('end', () => server.close(() => process.exit(0)));
process.stdin.resume();
