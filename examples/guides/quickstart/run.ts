import { firstPayment } from './first-payment.js';

// Prints the quote, the settled payment and the customer's transactions.
const payment = await firstPayment();
console.log(payment.status); // COMPLETED
