//! content-gap
