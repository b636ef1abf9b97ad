-- Takes units of a voucher's stock for orders about to be inserted, in their transaction: no row updated means
-- the database has not that many units left (or no such voucher). The row lock it takes makes writers on every
-- instance take the last units one after the other.
UPDATE vouchers
SET sold = sold + :#units
WHERE id = :#voucherId AND sold + :#units <= stock
