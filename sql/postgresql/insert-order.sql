-- Writes one accepted order; writing it again changes nothing (idempotent by order_id and by voucher+buyer).
INSERT INTO orders (order_id, voucher_id, user_id, status, created_at, pay_before, live_buyer_id)
VALUES (:#orderId, :#voucherId, :#userId, 'CREATED', :#createdAt, :#payBefore, :#userId)
ON CONFLICT DO NOTHING
