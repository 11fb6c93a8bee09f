//! Rules of this category: one file each.

mod structured_data_invalid_json;
mod structured_data_missing;
mod structured_data_no_context;
mod structured_data_required_properties;

pub use structured_data_invalid_json::StructuredDataInvalidJson;
pub use structured_data_missing::StructuredDataMissing;
pub use structured_data_no_context::StructuredDataNoContext;
pub use structured_data_required_properties::StructuredDataRequiredProperties;
