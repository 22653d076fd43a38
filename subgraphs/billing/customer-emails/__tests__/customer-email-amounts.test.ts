import { renderCustomerEmail } from '../customer-email-content.js';

/** A subscription's price reads as on every page: its period with its count ("/ 3 months"), kit/money's rule. */
const reminder = (interval: string, count: number) =>
  renderCustomerEmail({
    kind: 'subscription_renewal_reminder',
    organizationName: 'Seller',
    links: { portal: 'https://portal.example/p' },
    payload: {
      product: { name: 'Pro' },
      amount: 9000,
      currency: 'usd',
      recurring_interval: interval,
      recurring_interval_count: count,
      current_period_end: '2027-01-31T00:00:00Z',
    },
  }).text;

describe('subscription amounts in e-mails', () => {
  it('names a period of one interval as the interval', () => {
    expect(reminder('month', 1)).toContain('Amount: $90.00 / month');
  });

  it('names a period of several intervals with its count', () => {
    expect(reminder('month', 3)).toContain('Amount: $90.00 / 3 months');
  });
});
