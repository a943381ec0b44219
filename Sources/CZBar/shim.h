// libzbar (Debian's libzbar-dev): `hlspack fixture check` reads the QR codes of
// a recording with it. Only the C API is used.
#ifndef HLSPACK_CZBAR_SHIM_H
#define HLSPACK_CZBAR_SHIM_H

#include <zbar.h>

// libzbar is not linked: `hlspack fixture check` alone uses it and opens it with
// dlopen (ZBarLibrary.swift). The type of each function it looks up, taken
// from zbar.h so that a call cannot disagree with the header.
typedef __typeof__(&zbar_image_scanner_create) hlspack_zbar_image_scanner_create_fn;
typedef __typeof__(&zbar_image_scanner_set_config) hlspack_zbar_image_scanner_set_config_fn;
typedef __typeof__(&zbar_image_scanner_destroy) hlspack_zbar_image_scanner_destroy_fn;
typedef __typeof__(&zbar_image_create) hlspack_zbar_image_create_fn;
typedef __typeof__(&zbar_image_destroy) hlspack_zbar_image_destroy_fn;
typedef __typeof__(&zbar_image_set_format) hlspack_zbar_image_set_format_fn;
typedef __typeof__(&zbar_image_set_size) hlspack_zbar_image_set_size_fn;
typedef __typeof__(&zbar_image_set_data) hlspack_zbar_image_set_data_fn;
typedef __typeof__(&zbar_scan_image) hlspack_zbar_scan_image_fn;
typedef __typeof__(&zbar_image_first_symbol) hlspack_zbar_image_first_symbol_fn;
typedef __typeof__(&zbar_symbol_get_data) hlspack_zbar_symbol_get_data_fn;
typedef __typeof__(&zbar_symbol_next) hlspack_zbar_symbol_next_fn;

#endif
