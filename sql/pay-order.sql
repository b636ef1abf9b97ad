-- Records a payment: only the buyer's own order, only while unpaid and inside its window (no pay_before: an order
-- from before payment windows, no deadline). A concurrent cancellation holds or waits for the same row lock, so
-- exactly one of the two changes the row.
UPDATE orders
SET status = 'PAID'
WHERE order_id = :#orderId
  AND user_id = :#userId
  AND status = 'CREATED'
  AND (pay_before IS NULL OR pay_before > :#now)
