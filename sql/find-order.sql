SELECT order_id, voucher_id, user_id, status, created_at, pay_before
FROM orders
WHERE order_id = :#orderId
