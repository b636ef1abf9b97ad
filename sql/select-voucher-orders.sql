-- The live orders a voucher has in the database (CREATED or PAID): what a rebuild of its Redis state counts as
-- sold. A CANCELLED order's unit went back on sale.
SELECT order_id, user_id
FROM orders
WHERE voucher_id = :#voucherId
  AND status IN ('CREATED', 'PAID')
