-- Which of these orders are in the database already (the sweeper, before it gives up on an entry).
SELECT order_id
FROM orders
WHERE order_id IN (:#orderIds)
