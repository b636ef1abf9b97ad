-- The live orders (CREATED or PAID) a voucher has in the database: what a rebuild of its Redis state counts as
-- sold, and whose buyers it records.
SELECT order_id, user_id
FROM orders
WHERE voucher_id = :#voucherId AND status IN ('CREATED', 'PAID')
