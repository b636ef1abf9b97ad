-- Cancels an unpaid order whose window ran out; a paid or cancelled one is left as it is. The buyer no longer
-- holds a live order of the voucher (live_buyer_id NULL), so the returned unit can be bought again, by them too.
UPDATE orders
SET status = 'CANCELLED', live_buyer_id = NULL
WHERE order_id = :#orderId
  AND status = 'CREATED'
