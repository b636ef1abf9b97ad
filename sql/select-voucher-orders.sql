-- The orders a voucher has in the database: what a rebuild of its Redis state counts as sold.
SELECT order_id, user_id
FROM orders
WHERE voucher_id = :#voucherId
