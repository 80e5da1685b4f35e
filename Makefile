# Shortcuts for the scripts in scripts/ and bench/ (make is optional: the scripts run on their own).
.PHONY: demo test deb package-test bench bench-transport bench-images bench-cli bench-renders bench-economy bench-serve bench-reposts bench-history bench-cdn bench-gzip-bomb format

demo:
	bash scripts/demo.sh

test:
	bash scripts/test.sh

# The Debian package (packaging/README.md): .build/deb/kfeed_VERSION_ARCH.deb.
deb:
	bash scripts/package.sh

package-test:
	bash scripts/package-test.sh

bench: bench-transport bench-images bench-cli bench-renders bench-economy bench-serve bench-reposts bench-history bench-cdn bench-gzip-bomb

bench-transport:
	bash bench/transport.sh

bench-images:
	bash bench/images.sh

bench-cli:
	bash bench/cli.sh

bench-renders:
	bash bench/renders.sh

bench-economy:
	bash bench/economy.sh

bench-serve:
	bash bench/serve.sh

format:
	swift format --in-place --recursive --parallel Package.swift Sources Tests

bench-reposts:
	bash bench/reposts.sh

bench-history:
	bash bench/history.sh

bench-cdn:
	bash bench/cdn.sh

bench-gzip-bomb:
	bash bench/gzip-bomb.sh
