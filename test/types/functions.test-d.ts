/**
 * The standalone functions of `crossborder-sdk/functions` (issue 36) are typed as the resource methods are:
 * each returns what its operation answers (a list, the same PagePromise of its items), takes the same
 * parameters as the method it mirrors, and takes a core, not the `Crossborder` facade.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { Crossborder } from '../../src/client';
import type { CrossborderCore } from '../../src/core/client';
import type { Customer, CustomerCreateParams, CustomerListParams } from '../../src/index';
import * as fn from '../../src/functions';

type Method<F extends (...args: never[]) => unknown> = ReturnType<F>;

describe('standalone functions', () => {
  it('return what the resource method returns', () => {
    type C = Crossborder['customers'];
    expectTypeOf<Method<typeof fn.listCustomers>>().toEqualTypeOf<Method<C['list']>>();
    expectTypeOf<Method<typeof fn.createCustomer>>().toEqualTypeOf<Method<C['create']>>();
    expectTypeOf<Method<typeof fn.getCustomer>>().toEqualTypeOf<Method<C['retrieve']>>();
    expectTypeOf<Method<typeof fn.deleteCustomer>>().toEqualTypeOf<Method<C['delete']>>();
    expectTypeOf<Method<typeof fn.getQuote>>().toEqualTypeOf<Method<Crossborder['quotes']['retrieve']>>();
    expectTypeOf<Method<typeof fn.listTransactions>>().toEqualTypeOf<Method<Crossborder['transactions']['list']>>();
    expectTypeOf<Method<typeof fn.revokeSession>>().toEqualTypeOf<Method<Crossborder['auth']['sessions']['revoke']>>();
  });

  it('take the parameters the resource method takes', () => {
    const core = {} as CrossborderCore;
    expectTypeOf(fn.listCustomers).parameter(0).toEqualTypeOf<CrossborderCore>();
    expectTypeOf<CustomerListParams>().toMatchTypeOf<NonNullable<Parameters<typeof fn.listCustomers>[1]>>();
    expectTypeOf<CustomerCreateParams>().toMatchTypeOf<Parameters<typeof fn.createCustomer>[1]>();
    expectTypeOf(fn.getCustomer).parameter(1).toEqualTypeOf<string>();
    // Items of a list are typed: a customer.
    expectTypeOf<Awaited<ReturnType<typeof fn.listCustomers>>['data'][number]>().toEqualTypeOf<Customer>();
    // @ts-expect-error: limit is a number
    void fn.listCustomers(core, { limit: '20' });
    // @ts-expect-error: a body is required
    void fn.createCustomer(core);
    // @ts-expect-error: the facade is not a core
    void fn.getCustomer({} as Crossborder, 'Customer:1');
  });
});
