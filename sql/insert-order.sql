-- Writes one accepted order, live (live_buyer_id = its buyer). A plain INSERT: writing an order_id that is there
-- already fails (primary key), and so does a second live order of one buyer (orders_one_live_per_buyer); the
-- writer sorts the two out (io.seckill.order.OrderWriter), and never overwrites a row: a PAID or CANCELLED order
-- is never put back to CREATED by a redelivered entry. Same text on H2 and PostgreSQL.
INSERT INTO orders (order_id, voucher_id, user_id, live_buyer_id, status, created_at, pay_before)
VALUES (:#orderId, :#voucherId, :#userId, :#userId, 'CREATED', :#createdAt, :#payBefore)
