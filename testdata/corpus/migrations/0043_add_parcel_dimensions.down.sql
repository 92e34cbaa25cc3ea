ALTER TABLE parcels DROP COLUMN height_mm;
ALTER TABLE parcels DROP COLUMN width_mm;
ALTER TABLE parcels DROP COLUMN length_mm;
