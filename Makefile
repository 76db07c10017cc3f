# Builds, installs and packages the archivist command as a Unix tool. Every target calls SwiftPM;
# docs/install.md says what each one does and how a release is made.
#
#   make                          release build: the executable, its man pages and completions
#   make install PREFIX=DIR       DIR/bin/archivist, DIR/share/man/man1, bash, zsh and fish
#                                 completions under DIR/share (INSTALL_PLUTIL=1 adds
#                                 DIR/bin/plutil, a link to archivist)
#   make uninstall PREFIX=DIR     removes what install put there
#   make test                     the README's test command
#   make dist                     archivist-VERSION-linux-ARCH.tar.gz
#   make deb                      archivist_VERSION_ARCH.deb, its Depends read off the binary
#   make clean                    removes what make made (SwiftPM's own builds stay)

PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_PLUTIL ?= 0
SWIFT ?= swift
# The installed executable carries no symbol table or debug information (68 MB, not 106 MB).
# STRIP=true keeps them.
STRIP ?= strip
# No $ORIGIN run path: the executable needs no library of its own beside it.
SWIFT_BUILD_FLAGS ?= --disable-local-rpath
# From git: the tag, or 0.0.0-dev+COMMIT (scripts/version). `make VERSION=…` overrides it.
VERSION ?= $(shell scripts/version)
# Dates in the man pages and in the tarball: the commit's, so that a rebuild makes the same files.
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || date +%s)

BINDIR ?= $(DESTDIR)$(PREFIX)/bin
MANDIR ?= $(DESTDIR)$(PREFIX)/share/man/man1
BASH_COMPLETION_DIR ?= $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR ?= $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISH_COMPLETION_DIR ?= $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

# What make builds, before it is installed or packed.
STAGE := .build/make
# Written for the build, removed after it (Sources/CVersionStamp/include/CVersionStamp.h).
STAMP := Sources/CVersionStamp/StampedVersion.c
SOURCES := Package.swift $(shell find Sources -type f ! -path '$(STAMP)')
MANUAL_OUTPUT := .build/plugins/GenerateManual/outputs/archivist

ARCH := $(shell uname -m)
DIST_NAME = archivist-$(VERSION)-linux-$(ARCH)
# Debian's versions sort ~ before anything, so 0.0.0~dev+… comes before 0.0.0.
DEB_VERSION = $(subst -,~,$(VERSION))
DEB_ARCH = $(shell dpkg --print-architecture 2>/dev/null)
DEB_NAME = archivist_$(DEB_VERSION)_$(DEB_ARCH).deb
DEB_MAINTAINER ?= $(shell git log -1 --format='%an <%ae>' 2>/dev/null)

.PHONY: all build install uninstall test dist deb clean FORCE

all: build

build: $(STAGE)/archivist

# Rewritten only when the version changes, so that a new commit or tag rebuilds and nothing else does.
$(STAGE)/version: FORCE
	@mkdir -p $(STAGE)
	@case '$(VERSION)' in *[!0-9A-Za-z.+~-]*|'') echo "make: version '$(VERSION)' has characters a version cannot have" >&2; exit 1;; esac
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@

# One recipe for the executable, its manual and its completions: the manual plugin builds the
# package again, and with the stamp still in place that build has nothing to do.
$(STAGE)/archivist: $(SOURCES) $(STAGE)/version
	trap 'rm -f $(STAMP)' EXIT INT TERM; \
	printf '#include "CVersionStamp.h"\n// Written by make for one build, then removed.\nconst char *archivist_version_stamp(void) {\n    return "%s";\n}\n' '$(VERSION)' > $(STAMP) \
	  && $(SWIFT) build -c release --product archivist $(SWIFT_BUILD_FLAGS) \
	  && $(SWIFT) package $(SWIFT_BUILD_FLAGS) plugin generate-manual --multi-page \
	       --date "$$(date -u -d @$(SOURCE_DATE_EPOCH) +%Y-%m-%d 2>/dev/null || date -u -r $(SOURCE_DATE_EPOCH) +%Y-%m-%d)" \
	  && bin="$$($(SWIFT) build -c release $(SWIFT_BUILD_FLAGS) --show-bin-path)" \
	  && install -m 755 "$$bin/archivist" $@.new
	$(STRIP) $@.new
	rm -rf $(STAGE)/man $(STAGE)/completions
	mkdir -p $(STAGE)/man $(STAGE)/completions
	cp $(MANUAL_OUTPUT)/*.1 $(STAGE)/man/
	$@.new --generate-completion-script bash > $(STAGE)/completions/archivist.bash
	$@.new --generate-completion-script zsh > $(STAGE)/completions/_archivist
	$@.new --generate-completion-script fish > $(STAGE)/completions/archivist.fish
	mv $@.new $@

install: build
	install -d $(BINDIR) $(MANDIR) $(BASH_COMPLETION_DIR) $(ZSH_COMPLETION_DIR) $(FISH_COMPLETION_DIR)
	install -m 755 $(STAGE)/archivist $(BINDIR)/archivist
	@if [ '$(INSTALL_PLUTIL)' = 1 ]; then \
	    if [ -e $(BINDIR)/plutil ] && [ "$$(readlink $(BINDIR)/plutil)" != archivist ]; then \
	        echo "make: $(BINDIR)/plutil is there and is not a link to archivist; left as it is" >&2; exit 1; \
	    fi; \
	    echo "ln -sf archivist $(BINDIR)/plutil"; ln -sf archivist $(BINDIR)/plutil; \
	fi
	install -m 644 $(STAGE)/man/*.1 $(MANDIR)/
	install -m 644 $(STAGE)/completions/archivist.bash $(BASH_COMPLETION_DIR)/archivist
	install -m 644 $(STAGE)/completions/_archivist $(ZSH_COMPLETION_DIR)/_archivist
	install -m 644 $(STAGE)/completions/archivist.fish $(FISH_COMPLETION_DIR)/archivist.fish

# Every man page named archivist.*, so pages of verbs a later version dropped go too; plutil
# only when it is our link.
uninstall:
	rm -f $(BINDIR)/archivist $(MANDIR)/archivist.1 $(MANDIR)/archivist.*.1
	rm -f $(BASH_COMPLETION_DIR)/archivist $(ZSH_COMPLETION_DIR)/_archivist $(FISH_COMPLETION_DIR)/archivist.fish
	@if [ -L $(BINDIR)/plutil ] && [ "$$(readlink $(BINDIR)/plutil)" = archivist ]; then \
	    echo "rm -f $(BINDIR)/plutil"; rm -f $(BINDIR)/plutil; \
	fi

test:
	$(SWIFT) test

# A tree laid out as a prefix (bin/, share/), so that it unpacks into /usr/local or ~/.local.
dist: build
	rm -rf $(STAGE)/dist
	$(MAKE) --no-print-directory install VERSION='$(VERSION)' DESTDIR= PREFIX='$(CURDIR)/$(STAGE)/dist/$(DIST_NAME)' INSTALL_PLUTIL=1
	install -d $(STAGE)/dist/$(DIST_NAME)/share/doc/archivist
	install -m 644 README.md $(STAGE)/dist/$(DIST_NAME)/share/doc/archivist/
	for license in LICENSE LICENSE.txt LICENSE.md COPYING; do \
	    if [ -f $$license ]; then install -m 644 $$license $(STAGE)/dist/$(DIST_NAME)/share/doc/archivist/; fi; \
	done
	tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@$(SOURCE_DATE_EPOCH) \
	    -C $(STAGE)/dist -cf - $(DIST_NAME) | gzip -9n > $(DIST_NAME).tar.gz
	@echo "make: wrote $(DIST_NAME).tar.gz"

# Installed under /usr as Debian lays it out: man pages and README compressed, zsh's
# completion where Debian's zsh looks for packages' ones. Depends is computed from the
# executable by scripts/deb-depends (ldd and dpkg -S).
deb: build
	@[ -n '$(DEB_ARCH)' ] || { echo "make: deb needs dpkg (Debian or Ubuntu)" >&2; exit 1; }
	rm -rf $(STAGE)/deb
	$(MAKE) --no-print-directory install VERSION='$(VERSION)' DESTDIR='$(CURDIR)/$(STAGE)/deb' PREFIX=/usr \
	    ZSH_COMPLETION_DIR='$(CURDIR)/$(STAGE)/deb/usr/share/zsh/vendor-completions'
	gzip -9n $(STAGE)/deb/usr/share/man/man1/*.1
	install -d $(STAGE)/deb/usr/share/doc/archivist $(STAGE)/deb/DEBIAN
	gzip -9n < README.md > $(STAGE)/deb/usr/share/doc/archivist/README.md.gz
	for license in LICENSE LICENSE.txt LICENSE.md COPYING; do \
	    if [ -f $$license ]; then install -m 644 $$license $(STAGE)/deb/usr/share/doc/archivist/copyright; break; fi; \
	done
	depends="$$(scripts/deb-depends $(STAGE)/deb/usr/bin/archivist)" && { \
	    echo "Package: archivist"; \
	    echo "Version: $(DEB_VERSION)"; \
	    echo "Architecture: $(DEB_ARCH)"; \
	    echo "Maintainer: $(DEB_MAINTAINER)"; \
	    echo "Installed-Size: $$(du -sk --exclude=DEBIAN $(STAGE)/deb | cut -f1)"; \
	    echo "Depends: $$depends"; \
	    echo "Section: utils"; \
	    echo "Priority: optional"; \
	    echo "Description: read, check and convert Apple property lists and keyed archives"; \
	    echo " archivist reads, checks, converts and migrates Apple property lists (binary,"; \
	    echo " XML, OpenStep, JSON) and NSKeyedArchiver archives on Linux, without a Mac:"; \
	    echo " allow-list checks as NSSecureUnarchiveFromDataTransformer makes them, Codable"; \
	    echo " JSON from archived blobs, Core Data store and PostgreSQL table migrations, and"; \
	    echo " sweeps of whole device extractions."; \
	} > $(STAGE)/deb/DEBIAN/control
	dpkg-deb --root-owner-group --build $(STAGE)/deb $(DEB_NAME)

clean:
	rm -rf $(STAGE) $(STAMP)
	rm -f archivist-*-linux-*.tar.gz archivist_*.deb

FORCE:
