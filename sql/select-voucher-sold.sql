-- Each voucher's live orders as the database counts them (vouchers.sold), for the check of Redis's state.
SELECT id, sold
FROM vouchers
