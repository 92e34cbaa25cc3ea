-- Parcel dimensions, needed by Swiftpost for volumetric pricing.
ALTER TABLE parcels ADD COLUMN length_mm integer CHECK (length_mm > 0);
ALTER TABLE parcels ADD COLUMN width_mm integer CHECK (width_mm > 0);
ALTER TABLE parcels ADD COLUMN height_mm integer CHECK (height_mm > 0);

COMMENT ON COLUMN parcels.length_mm IS 'outer length of the packed parcel in millimetres';
