package xsession

// The library is found with pkg-config: the build tree's xsession.pc for this repository's tests
// (PKG_CONFIG_PATH=<build>/pkgconfig), the installed one otherwise.

/*
#cgo pkg-config: xsession
#include <xsession.h>
*/
import "C"

// Version reports the version of the libxsession the program runs against
// (xs_version). Compare with HeaderVersion to detect a library older than the binding.
func Version() (major, minor, patch int) {
	var ma, mi, pa C.int
	C.xs_version(&ma, &mi, &pa)
	return int(ma), int(mi), int(pa)
}

// Version of the xsession.h this binding was compiled against.
const (
	HeaderVersionMajor = C.XS_VERSION_MAJOR // major version of the header
	HeaderVersionMinor = C.XS_VERSION_MINOR // minor version of the header
	HeaderVersionPatch = C.XS_VERSION_PATCH // patch version of the header
)
