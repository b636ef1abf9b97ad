-- A voucher's stock and live orders, to say why take-units.sql took nothing.
SELECT stock, sold
FROM vouchers
WHERE id = :#voucherId
