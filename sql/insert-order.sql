-- Writes one accepted order; writing it again changes nothing (idempotent by order_id): a row that moved on
-- (PAID, CANCELLED) is never put back to CREATED by a redelivered entry.
-- H2 dialect; PostgreSQL uses postgresql/insert-order.sql.
MERGE INTO orders o
USING (VALUES (CAST(:#orderId AS BIGINT))) AS entry (order_id)
ON o.order_id = entry.order_id
WHEN NOT MATCHED THEN
    INSERT (order_id, voucher_id, user_id, status, created_at, pay_before, live_buyer_id)
    VALUES (:#orderId, :#voucherId, :#userId, 'CREATED', :#createdAt, :#payBefore, :#userId)
