import express from 'express';
import type { Crossborder } from 'crossborder-sdk';
import type { PayoutBatch } from 'crossborder-sdk/payouts';

/** A webhook receiver that settles a batch's payouts (the batch made with `webhooks: true`). */
export function payoutWebhooks(cb: Crossborder, batch: PayoutBatch): express.Express {
  const app = express();
  app.post('/webhooks', express.raw({ type: '*/*' }), async (req, res) => {
    let event;
    try {
      event = await cb.webhooks.unwrap(req.body as Buffer, req.headers);
    } catch {
      res.sendStatus(400); // not signed by the service
      return;
    }
    batch.onWebhookEvent(event); // OUTGOING_PAYMENT.* of this batch's transactions settle their references
    res.sendStatus(200); // every verified delivery is acknowledged, the batch's or not
  });
  return app;
}
