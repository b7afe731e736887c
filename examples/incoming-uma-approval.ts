/**
 * Incoming UMA payments that wait for the platform's approval, on the built-in local sandbox.
 *
 *   npx tsx examples/incoming-uma-approval.ts
 *
 * The platform's webhook endpoint runs on node:http (127.0.0.1). The sandbox delivers
 * `INCOMING_PAYMENT.PENDING` to it and the endpoint's answer is the decision: `approvePayment()`
 * (200) or `rejectPayment()` (403), within 5 seconds. Two payments arrive: one from a known sender
 * (approved, credited) and one from a sender on the platform's block list (rejected, refunded).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Crossborder, WebhookVerificationError, approvePayment, formatAmount, rejectPayment } from 'crossborder-sdk';
import { createSandbox, MAGIC } from 'crossborder-sdk/sandbox';

export async function main(print: (line: string) => void = console.log): Promise<void> {
  const sandbox = createSandbox();
  const cb = new Crossborder({
    tokenId: 'demo',
    clientSecret: 'demo',
    environment: 'sandbox',
    fetch: sandbox.fetch,
    webhookPublicKey: sandbox.webhookPublicKey.pem, // in production: CROSSBORDER_WEBHOOK_PUBLIC_KEY
  });

  // Your compliance decision, from your own records: the same delivery always gets the same answer.
  const blockedSenders = new Set(['$mallory@sandbox.uma.example']);
  const decide = async (rawBody: Buffer, headers: IncomingHttpHeaders): Promise<Response> => {
    const event = await cb.webhooks.unwrap(rawBody, headers); // checks X-Service-Signature first
    if (event.type !== 'INCOMING_PAYMENT.PENDING') {
      print(`webhook   ${event.type}  ${event.id}`); // other types, including those this SDK does not know yet
      return new Response(null, { status: 200 });
    }
    const payment = event.data; // an IncomingTransaction: the type check narrowed it
    const source = payment.source; // production may leave it out of an incoming payment
    const sender = source?.sourceType === 'UMA_ADDRESS' ? source.umaAddress : source?.sourceType === 'ACCOUNT' ? source.accountId : '';
    const amount = payment.receivedAmount ? formatAmount(payment.receivedAmount, { code: true }) : '?';
    if (blockedSenders.has(sender)) {
      print(`approval  ${payment.id}  ${amount} from ${sender}: reject`);
      return rejectPayment({ message: 'The sender is on our block list' });
    }
    print(`approval  ${payment.id}  ${amount} from ${sender}: approve`);
    return approvePayment({ receiverCustomerInfo: { FULL_NAME: 'Ada Lovelace' } });
  };

  // The platform's webhook endpoint. The signature covers the raw bytes: collect them, never re-serialize.
  // Every failure, a delivery cut off mid-body included, is answered inside: Node does not wait for the promise.
  const receive = async (req: IncomingMessage, res: ServerResponse) => {
    let reply: Response;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      reply = await decide(Buffer.concat(chunks), req.headers);
    } catch (err) {
      reply = new Response(null, { status: err instanceof WebhookVerificationError ? 400 : 500 });
    }
    res.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(await reply.text());
  };
  const server = createServer((req, res) => void receive(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  try {
    await cb.config.update({ webhookEndpoint: `http://127.0.0.1:${port}/webhooks` });
    const customer = await cb.customers.create({
      customerType: 'INDIVIDUAL',
      region: 'US',
      fullName: 'Ada Lovelace',
      birthDate: '1990-12-10',
      nationality: 'GB',
    });
    print(`customer  ${customer.id}  ${customer.umaAddress}`);

    // Sandbox only: simulate payments arriving. The amount MAGIC.holdForApprovalAmount (13131313, exactly)
    // is held PENDING and sent to the webhook endpoint for approval; any other amount completes at once.
    for (const sender of ['$bob@sandbox.uma.example', '$mallory@sandbox.uma.example']) {
      const held = await cb.sandbox.receiveUmaPayment({
        senderUmaAddress: sender,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: MAGIC.holdForApprovalAmount, // $131,313.13
        customerId: customer.id,
      });
      print(`incoming  ${held.id}  ${held.status}`);
      // The decision is made by the endpoint above; poll until the payment has left PENDING.
      const settled = await cb.transactions.waitFor(held.id, { pollInterval: 100, timeout: 10_000 });
      print(`settled   ${settled.id}  ${settled.status}`);
    }

    await sandbox.webhooks.flush(); // sandbox only: let the follow-up notifications arrive
    const {
      data: [account],
    } = await cb.internalAccounts.list({ customerId: customer.id, currency: 'USD' });
    print(`balance   ${account ? formatAmount(account.balance, { code: true }) : 'no account'}`);
  } finally {
    await sandbox.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
