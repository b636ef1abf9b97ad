-- The live orders of the vouchers with ids from :#fromId to :#toId as the database counts them (vouchers.sold),
-- for the check of Redis's state, one page of vouchers at a time.
SELECT id, sold
FROM vouchers
WHERE id BETWEEN :#fromId AND :#toId
