-- A voucher's unpaid orders with a payment window, to schedule their expiry again after a rebuild of Redis.
SELECT order_id, user_id, pay_before
FROM orders
WHERE voucher_id = :#voucherId
  AND status = 'CREATED'
  AND pay_before IS NOT NULL
