-- The writes of one renewal, as plain SQL (the baseline of `npm run bench`, target r; bench/renewals.ts):
-- claim a due subscription with SKIP LOCKED and move its period, take the organization's next invoice
-- number, write the cycle order, its item, the processor's charge, its payment and five outbox events
-- (subscription.updated, subscription.cycled, order.created, order.updated, order.paid).
-- Variables: :org (organization), :customer, :product.
begin;
select id as sub_id from billing.subscriptions where status = 'active' and current_period_end <= now()
  order by current_period_end limit 1 for update skip locked \gset
update billing.subscriptions set current_period_start = current_period_end,
  current_period_end = current_period_end + interval '1 month', modified_at = now() where id = :sub_id;
insert into billing.invoice_number_sequences (organization_id, last_number) values (:org, 1)
  on conflict (organization_id) do update set last_number = billing.invoice_number_sequences.last_number + 1
  returning last_number \gset
insert into billing.orders (id, organization_id, customer_id, product_id, subscription_id, status, billing_reason,
  currency, subtotal_amount, invoice_number, metadata, custom_field_data, billing_period_start, created_at)
  values (gen_random_uuid(), :org, :customer, :product, :sub_id, 'paid', 'subscription_cycle', 'usd', 1000,
  'B-' || :last_number::text, '{}', '{}', now() - interval '1 month' * random(), now()) returning id as order_id \gset
insert into billing.order_items (id, order_id, label, amount, position, created_at)
  values (gen_random_uuid(), :order_id, 'Plan', 1000, 0, now());
insert into billing.test_processor_charges (id, idempotency_key, customer_id, test_method, amount, currency, status,
  brand, last4, exp_month, exp_year, off_session, metadata, created_at)
  values ('ch_' || :order_id::text, 'charge:' || :order_id::text, 'cus', 'pm_card_visa', 1000, 'usd', 'succeeded', 'visa', '4242',
  12, 2034, true, '{}', now());
insert into billing.payments (id, organization_id, customer_id, order_id, processor, idempotency_key, status, amount,
  currency, method, created_at)
  values (gen_random_uuid(), :org, :customer, :order_id, 'stripe', 'bench:' || :order_id::text, 'succeeded', 1000,
  'usd', 'card', now());
insert into billing.events (id, organization_id, type, payload, created_at)
  select gen_random_uuid(), :org::uuid, t, jsonb_build_object('id', :order_id::text, 'status', 'paid', 'amount', 1000), now()
  from unnest(array['subscription.updated', 'subscription.cycled', 'order.created', 'order.updated', 'order.paid']) t;
commit;
