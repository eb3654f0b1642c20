/// Ferry's MIME table, in `/etc/mime.types` format, compiled into the binary (it was read from
/// a resource bundle, which needs Foundation's `Bundle` and a file beside the executable).
enum BundledMIMETable {
    /// The table: a content type, then the extensions that map to it; `#` starts a comment.
    static let text = #"""
# Ferry's MIME table: a content type, then the extensions that map to it (lowercase, no dot).
# Same format as /etc/mime.types, which Ferry merges in for extensions not listed here.
# Images
image/jpeg                      jpg jpeg jpe jfif
image/png                       png
image/gif                       gif
image/webp                      webp
image/avif                      avif
image/heic                      heic
image/heif                      heif
image/bmp                       bmp
image/tiff                      tif tiff
image/svg+xml                   svg svgz
image/x-icon                    ico
image/vnd.adobe.photoshop       psd
image/jxl                       jxl
image/x-canon-cr2               cr2
image/x-nikon-nef               nef
image/x-adobe-dng               dng
# Audio
audio/mpeg                      mp3
audio/aac                       aac
audio/mp4                       m4a
audio/ogg                       ogg oga
audio/opus                      opus
audio/wav                       wav
audio/flac                      flac
audio/webm                      weba
audio/midi                      mid midi
audio/aiff                      aif aiff
audio/amr                       amr
# Video
video/mp4                       mp4 m4v
video/webm                      webm
video/x-matroska                mkv
video/quicktime                 mov qt
video/x-msvideo                 avi
video/mpeg                      mpeg mpg
video/mp2t                      ts m2ts
video/ogg                       ogv
video/3gpp                      3gp
video/x-flv                     flv
video/x-ms-wmv                  wmv
# Documents
application/pdf                 pdf
application/msword              doc
application/vnd.openxmlformats-officedocument.wordprocessingml.document docx
application/vnd.ms-excel        xls
application/vnd.openxmlformats-officedocument.spreadsheetml.sheet xlsx
application/vnd.ms-powerpoint   ppt
application/vnd.openxmlformats-officedocument.presentationml.presentation pptx
application/vnd.oasis.opendocument.text odt
application/vnd.oasis.opendocument.spreadsheet ods
application/vnd.oasis.opendocument.presentation odp
application/rtf                 rtf
application/epub+zip            epub
application/x-mobipocket-ebook  mobi
application/vnd.apple.pages     pages
application/vnd.apple.numbers   numbers
application/vnd.apple.keynote   key
application/postscript          ps eps ai
# Archives and packages
application/zip                 zip
application/gzip                gz tgz
application/x-tar               tar
application/x-bzip2             bz2 tbz2
application/x-xz                xz txz
application/zstd                zst
application/x-7z-compressed     7z
application/vnd.rar             rar
application/x-lzip              lz
application/java-archive        jar war
application/vnd.android.package-archive apk
application/x-debian-package    deb
application/x-rpm               rpm
application/x-iso9660-image     iso
application/x-apple-diskimage   dmg
application/vnd.microsoft.portable-executable exe dll
application/x-msi               msi
application/wasm                wasm
application/octet-stream        bin
# Text and data
text/plain                      txt text log conf cfg ini asc
text/markdown                   md markdown
text/csv                        csv
text/tab-separated-values       tsv
text/html                       html htm
text/css                        css
text/calendar                   ics
text/vcard                      vcf
text/x-rst                      rst
text/x-tex                      tex
application/json                json map
application/ld+json             jsonld
application/x-ndjson            ndjson jsonl
application/xml                 xml xsl xsd
application/yaml                yaml yml
application/toml                toml
application/sql                 sql
application/x-sqlite3           sqlite sqlite3 db
application/x-parquet           parquet
application/x-protobuf          proto
application/pgp-signature       sig
application/pkcs8               p8
application/x-pem-file          pem
application/x-x509-ca-cert      crt cer der
# Source code
text/javascript                 js mjs cjs
application/typescript          mts cts
text/x-swift                    swift
text/x-c                        c h
text/x-c++                      cpp cc cxx hpp hh hxx
text/x-objective-c              m mm
text/x-python                   py pyi
text/x-ruby                     rb
text/x-go                       go
text/x-rust                     rs
text/x-java                     java
text/x-kotlin                   kt kts
text/x-scala                    scala
text/x-csharp                   cs
text/x-php                      php
text/x-perl                     pl pm
text/x-lua                      lua
text/x-haskell                  hs
text/x-elixir                   ex exs
text/x-erlang                   erl
text/x-clojure                  clj
text/x-r                        r
text/x-dart                     dart
text/x-zig                      zig
text/x-shellscript              sh bash zsh fish
text/x-diff                     diff patch
text/x-makefile                 mk
text/x-dockerfile               dockerfile
text/x-vue                      vue
text/x-svelte                   svelte
text/jsx                        jsx
text/tsx                        tsx
# Fonts
font/ttf                        ttf
font/otf                        otf
font/woff                       woff
font/woff2                      woff2
application/vnd.ms-fontobject   eot
# Models and design
model/gltf+json                 gltf
model/gltf-binary               glb
model/stl                       stl
model/obj                       obj
application/x-blender           blend
application/vnd.sketch          sketch
application/x-figma             fig
"""#
}
