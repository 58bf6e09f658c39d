"""What every memory store's reader shares: opening, snapshots, rows, values, records, schema detection."""
