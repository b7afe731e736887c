import { sandbox } from './client.js';
import { firstPayment } from './first-payment.js';

// An async function, not a top-level await: this file runs as written in a CommonJS project
// (`npm init -y`) and in an ES module one.
async function main() {
  const payment = await firstPayment(); // prints the quote, the settled payment and the customer's transactions
  console.log(payment.status); // COMPLETED
  await sandbox.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
