/*
 * floor: the naive single-threaded importer of issue 13, the yardstick scripts/benchmark measures healthetl
 * against on the same machine in the same run (absolute MB/s differ between machines; the ratio does not).
 *
 *   floor EXPORT.zip DATABASE
 *
 * One thread does everything, in order: inflate the zip's main XML entry with zlib, cut the DOCTYPE and the
 * XML-illegal control characters in a streaming filter, parse with libxml2's SAX2 push parser (XML_PARSE_NONET,
 * no entity expansion), and insert every Record (type, source, start, end, value, unit), MetadataEntry and
 * InstantaneousBeatsPerMinute with prepared statements into three tables with one index each, in one transaction.
 * No units, dedup, identity, side files or rollups: what is left is the cost of the libraries themselves.
 *
 * SQLite settings are those of healthetl's new-database path (SQLiteTarget.swift): journal_mode OFF, synchronous
 * OFF, 16 KiB pages, a 16 MiB page cache; indexes exist during the load, as healthetl keeps its own.
 *
 * Prints one JSON line: the XML bytes parsed and the rows inserted. Errors: one line naming the file, exit 1.
 * Build: cc -O2 scripts/floor.c $(pkg-config --cflags --libs libxml-2.0 sqlite3 zlib) -o floor
 */
#include <libxml/parser.h>
#include <sqlite3.h>
#include <zlib.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *zip_path;
static char entry_name[1024]; /* the main XML's name in the zip, for error messages */

static void fail(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    fprintf(stderr, "floor: %s: ", zip_path);
    vfprintf(stderr, format, arguments);
    fputc('\n', stderr);
    va_end(arguments);
    exit(1);
}

/* ---- The zip: find the main XML entry through the central directory ----
 * Health.app streams its entries with data descriptors (sizes 0 in the local headers), so the sizes and the
 * offset come from the central directory. Zip64 (entries of 4 GiB and more) is not handled: the floor fails. */

static uint32_t le16(const unsigned char *p) { return p[0] | p[1] << 8; }
static uint32_t le32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

struct entry {
    long data_offset;
    uint32_t compressed_size;
    uint32_t method;
};

/* The main XML is `apple_health_export/<name>.xml` (localised: 导出.xml, Export.xml), not `…_cda.xml`. */
static int is_main_xml(const char *name, size_t length) {
    const char *slash = memchr(name, '/', length);
    if (!slash || memchr(slash + 1, '/', length - (slash + 1 - name))) return 0;
    if (length < 4 || memcmp(name + length - 4, ".xml", 4) != 0) return 0;
    return !(length >= 8 && memcmp(name + length - 8, "_cda.xml", 8) == 0);
}

static struct entry find_main_xml(FILE *file) {
    if (fseek(file, 0, SEEK_END) != 0) fail("cannot seek");
    long size = ftell(file);
    long tail_size = size < 65557 ? size : 65557; /* end record (22) + the longest comment */
    unsigned char *tail = malloc(tail_size);
    if (!tail || fseek(file, size - tail_size, SEEK_SET) != 0 || fread(tail, 1, tail_size, file) != (size_t)tail_size)
        fail("cannot read the end of the zip");
    long end = -1;
    for (long i = tail_size - 22; i >= 0; i--)
        if (le32(tail + i) == 0x06054b50) { end = i; break; }
    if (end < 0) fail("not a zip file (no end of central directory)");
    uint32_t directory_size = le32(tail + end + 12), directory_offset = le32(tail + end + 16);
    free(tail);
    if (directory_offset == 0xffffffff) fail("zip64 archives are not supported by the floor");
    unsigned char *directory = malloc(directory_size);
    if (!directory || fseek(file, directory_offset, SEEK_SET) != 0
        || fread(directory, 1, directory_size, file) != directory_size)
        fail("cannot read the central directory");
    for (uint32_t at = 0; at + 46 <= directory_size;) {
        const unsigned char *header = directory + at;
        if (le32(header) != 0x02014b50) fail("broken central directory at byte %u", directory_offset + at);
        uint32_t name_length = le16(header + 28), extra_length = le16(header + 30), comment_length = le16(header + 32);
        if (is_main_xml((const char *)header + 46, name_length)) {
            struct entry entry = {0, le32(header + 20), le16(header + 10)};
            snprintf(entry_name, sizeof entry_name, "%.*s", (int)name_length, (const char *)header + 46);
            uint32_t local_offset = le32(header + 42);
            unsigned char local[30];
            if (entry.compressed_size == 0xffffffff || local_offset == 0xffffffff)
                fail("zip64 entries are not supported by the floor");
            if (fseek(file, local_offset, SEEK_SET) != 0 || fread(local, 1, 30, file) != 30 || le32(local) != 0x04034b50)
                fail("broken local header of the main XML");
            entry.data_offset = local_offset + 30 + le16(local + 26) + le16(local + 28);
            free(directory);
            return entry;
        }
        at += 46 + name_length + extra_length + comment_length;
    }
    fail("no apple_health_export/*.xml entry");
    return (struct entry){0};
}

/* ---- SQLite: three tables, one index each, prepared statements, one transaction ---- */

static sqlite3 *database;
static sqlite3_stmt *insert_record, *insert_metadata, *insert_beat;
static sqlite3_int64 current_record; /* rowid of the Record being parsed, 0 outside one */
static long long records, metadata_entries, beats;

static void execute(const char *sql) {
    char *message = NULL;
    if (sqlite3_exec(database, sql, NULL, NULL, &message) != SQLITE_OK) fail("SQLite: %s", message);
}

static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *statement;
    if (sqlite3_prepare_v2(database, sql, -1, &statement, NULL) != SQLITE_OK)
        fail("SQLite: %s", sqlite3_errmsg(database));
    return statement;
}

static void open_database(const char *path) {
    if (sqlite3_open(path, &database) != SQLITE_OK) fail("cannot open %s", path);
    execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 16384;"
            "PRAGMA cache_size = -16384;"
            "CREATE TABLE records (id INTEGER PRIMARY KEY, type TEXT, source TEXT, start TEXT, end TEXT,"
            " value REAL, unit TEXT);"
            "CREATE TABLE metadata (record_id INTEGER, key TEXT, value TEXT);"
            "CREATE TABLE beats (record_id INTEGER, bpm REAL, time TEXT);"
            "CREATE INDEX records_type_start ON records (type, start);"
            "CREATE INDEX metadata_record ON metadata (record_id);"
            "CREATE INDEX beats_record ON beats (record_id);"
            "BEGIN");
    insert_record = prepare("INSERT INTO records (type, source, start, end, value, unit) VALUES (?, ?, ?, ?, ?, ?)");
    insert_metadata = prepare("INSERT INTO metadata (record_id, key, value) VALUES (?, ?, ?)");
    insert_beat = prepare("INSERT INTO beats (record_id, bpm, time) VALUES (?, ?, ?)");
}

static void step(sqlite3_stmt *statement) {
    if (sqlite3_step(statement) != SQLITE_DONE) fail("SQLite: %s", sqlite3_errmsg(database));
    sqlite3_reset(statement);
}

/* ---- SAX2: attributes come as (localname, prefix, URI, value, end) quintuples, values not NUL-terminated ---- */

static void bind_attribute(sqlite3_stmt *statement, int column, const char *name, int count,
                           const xmlChar **attributes) {
    for (int i = 0; i < count; i++) {
        const xmlChar **attribute = attributes + 5 * i;
        if (strcmp((const char *)attribute[0], name) == 0) {
            sqlite3_bind_text(statement, column, (const char *)attribute[3], (int)(attribute[4] - attribute[3]),
                              SQLITE_TRANSIENT);
            return;
        }
    }
    sqlite3_bind_null(statement, column);
}

static void bind_record_id(sqlite3_stmt *statement) {
    if (current_record) sqlite3_bind_int64(statement, 1, current_record);
    else sqlite3_bind_null(statement, 1);
}

static void start_element(void *context, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri,
                          int namespace_count, const xmlChar **namespaces, int count, int defaulted,
                          const xmlChar **attributes) {
    (void)context, (void)prefix, (void)uri, (void)namespace_count, (void)namespaces, (void)defaulted;
    if (strcmp((const char *)name, "Record") == 0) {
        static const char *columns[] = {"type", "sourceName", "startDate", "endDate", "value", "unit"};
        for (int column = 0; column < 6; column++)
            bind_attribute(insert_record, column + 1, columns[column], count, attributes);
        step(insert_record);
        current_record = sqlite3_last_insert_rowid(database);
        records++;
    } else if (strcmp((const char *)name, "MetadataEntry") == 0) {
        bind_record_id(insert_metadata);
        bind_attribute(insert_metadata, 2, "key", count, attributes);
        bind_attribute(insert_metadata, 3, "value", count, attributes);
        step(insert_metadata);
        metadata_entries++;
    } else if (strcmp((const char *)name, "InstantaneousBeatsPerMinute") == 0) {
        bind_record_id(insert_beat);
        bind_attribute(insert_beat, 2, "bpm", count, attributes);
        bind_attribute(insert_beat, 3, "time", count, attributes);
        step(insert_beat);
        beats++;
    }
}

static void end_element(void *context, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri) {
    (void)context, (void)prefix, (void)uri;
    if (strcmp((const char *)name, "Record") == 0) current_record = 0;
}

/* ---- The filter between zlib and libxml2 ----
 * The prolog is held back until the root element starts, then the DOCTYPE (whose internal subset is not well
 * formed in iOS 16 exports) is cut out of it. After that, bytes 0x00-0x08, 0x0B, 0x0C and 0x0E-0x1F (illegal in
 * XML 1.0; a third-party source name can carry U+000B) are dropped; UTF-8 continuation bytes are all >= 0x80. */

static xmlParserCtxtPtr parser;
static char *head;
static size_t head_length;
static int head_done;
static long long xml_bytes;

static void push(const char *bytes, size_t length, int last) {
    if (xmlParseChunk(parser, bytes, (int)length, last) != 0) {
        const xmlError *error = xmlCtxtGetLastError(parser);
        const char *message = error && error->message ? error->message : "unknown error";
        int length = (int)strcspn(message, "\n"); /* libxml2 ends its messages with a newline */
        fail("%s:%d:%d: %.*s", entry_name, error ? error->line : 0, error ? error->int2 : 0, length, message);
    }
}

static void filter(char *bytes, size_t length) {
    size_t kept = 0;
    for (size_t i = 0; i < length; i++) {
        unsigned char byte = (unsigned char)bytes[i];
        if (byte >= 0x20 || byte == '\t' || byte == '\n' || byte == '\r') bytes[kept++] = (char)byte;
    }
    if (!head_done) {
        head = realloc(head, head_length + kept + 1);
        memcpy(head + head_length, bytes, kept);
        head_length += kept;
        head[head_length] = 0;
        char *root = strstr(head, "<HealthData");
        if (!root) {
            if (head_length > (1 << 20)) fail("no <HealthData> in the first MiB");
            return;
        }
        char *doctype = strstr(head, "<!DOCTYPE");
        if (doctype && doctype < root) {
            /* The DOCTYPE's lines become empty lines, so that libxml2's line numbers stay those of the file. */
            push(head, doctype - head, 0);
            for (char *at = doctype; at < root; at++)
                if (*at == '\n') push("\n", 1, 0);
            push(root, head_length - (root - head), 0);
        } else {
            push(head, head_length, 0);
        }
        head_done = 1;
        free(head);
        return;
    }
    push(bytes, kept, 0);
}

static void inflate_entry(FILE *file, struct entry entry) {
    enum { IN = 1 << 18, OUT = 1 << 20 };
    static unsigned char input[IN], output[OUT];
    z_stream stream = {0};
    if (entry.method != 8 && entry.method != 0) fail("main XML compressed with method %u", entry.method);
    if (entry.method == 8 && inflateInit2(&stream, -MAX_WBITS) != Z_OK) fail("zlib: cannot start");
    if (fseek(file, entry.data_offset, SEEK_SET) != 0) fail("cannot seek to the main XML");
    uint32_t left = entry.compressed_size;
    int status = Z_OK;
    while (left > 0 && status != Z_STREAM_END) {
        size_t chunk = fread(input, 1, left < IN ? left : IN, file);
        if (chunk == 0) fail("the zip ends inside the main XML");
        left -= (uint32_t)chunk;
        if (entry.method == 0) {
            xml_bytes += chunk;
            filter((char *)input, chunk);
            continue;
        }
        stream.next_in = input;
        stream.avail_in = (uInt)chunk;
        do {
            stream.next_out = output;
            stream.avail_out = OUT;
            status = inflate(&stream, Z_NO_FLUSH);
            if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR)
                fail("zlib: %s", stream.msg ? stream.msg : "inflate failed");
            xml_bytes += OUT - stream.avail_out;
            filter((char *)output, OUT - stream.avail_out);
        } while (stream.avail_out == 0);
    }
    if (entry.method == 8) inflateEnd(&stream);
    if (!head_done) fail("no <HealthData> in the main XML");
    push(NULL, 0, 1);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: floor EXPORT.zip DATABASE\n");
        return 64;
    }
    zip_path = argv[1];
    umask(077); /* health data: the database is readable by its owner only */
    FILE *file = fopen(zip_path, "rb");
    if (!file) fail("cannot open");
    struct entry entry = find_main_xml(file);
    open_database(argv[2]);

    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = start_element;
    sax.endElementNs = end_element;
    parser = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, "export.xml");
    if (!parser) fail("libxml2: cannot create a parser");
    xmlCtxtUseOptions(parser, XML_PARSE_NONET); /* no XML_PARSE_NOENT: entities are not expanded */

    inflate_entry(file, entry);
    fclose(file);
    xmlFreeParserCtxt(parser);
    execute("COMMIT");
    sqlite3_finalize(insert_record);
    sqlite3_finalize(insert_metadata);
    sqlite3_finalize(insert_beat);
    if (sqlite3_close(database) != SQLITE_OK) fail("SQLite: cannot close the database");
    printf("{\"xmlBytes\": %lld, \"records\": %lld, \"metadataEntries\": %lld, \"beats\": %lld}\n", xml_bytes,
           records, metadata_entries, beats);
    return 0;
}
