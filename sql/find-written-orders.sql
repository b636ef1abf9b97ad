-- Which of these orders are in the database already, with their voucher and buyer (the writer, before it
-- inserts a batch; the sweeper, before it gives up on an entry).
SELECT order_id, voucher_id, user_id
FROM orders
WHERE order_id IN (:#orderIds)
