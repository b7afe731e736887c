// @ts-nocheck
import { ValidationError, type Crossborder } from 'crossborder-sdk';

/** Creates a customer from a sign-up form, or returns a message per field. Invalid params are never sent. */
export async function signUp(cb: Crossborder, form: { fullName: string; birthDate: string; nationality: string }) {
  try {
    const customer = await cb.customers.create({ customerType: 'INDIVIDUAL', region: 'US', ...form });
    return { customer };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return { problems: Object.fromEntries(err.issues.map((issue) => [issue.path, issue.message])) };
  }
}
