-- Writes one accepted order; writing it again changes nothing (idempotent by order_id).
-- H2 dialect; PostgreSQL uses postgresql/insert-order.sql.
MERGE INTO orders (order_id, voucher_id, user_id, status, created_at)
KEY (order_id)
VALUES (:#orderId, :#voucherId, :#userId, 'CREATED', :#createdAt)
