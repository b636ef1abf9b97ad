-- In the cancellation's transaction, once its row went CREATED → CANCELLED: the voucher has one live order less.
UPDATE vouchers
SET sold = sold - 1
WHERE id = :#voucherId
