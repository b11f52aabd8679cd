//! The world view's own checks; the independent expectation lives in `tests/it/world_expect`.
