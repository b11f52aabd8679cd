#!/usr/bin/env bash
# gamedata-web's unit tests compiled to WebAssembly and run in headless Chromium
# (crates/gamedata-web/tests/in_browser.rs, wasm-bindgen-test): wasm-bindgen-cli's test
# runner drives Debian's chromium through its chromedriver, with the flags of
# crates/gamedata-web/webdriver.json. Needs what web/build.sh needs, and the packages
# chromium and chromium-driver.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-300}"
# The release profile: the dependencies web/build.sh compiled for wasm32 are reused.
cargo test --release -p gamedata-web --target wasm32-unknown-unknown --test in_browser
