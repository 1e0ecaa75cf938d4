"""Where things are in a TOML file: the line of every table, key and array element, so that an
error in a card file can name its line (issue 24 item 11).  tomllib gives data, not positions.

A light scan, not a parser: it runs only on the error path, after tomllib has read the text, so
the text is valid TOML and nothing needs checking; the scan follows table headers, (dotted,
quoted) keys, strings of the four kinds, arrays and inline tables.  A path is the keys and array
indices from the document's root, as in the parsed data: ``("cards", 3, "hp")``.
"""

from __future__ import annotations

import re
import tomllib

__all__ = ["KeyPath", "key_lines", "line_of"]

KeyPath = tuple[str | int, ...]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_SCALAR_END = re.compile(r"[,\]}#\r\n]")


def key_lines(text: str) -> dict[KeyPath, int]:
    """The (1-based) line of each path of the valid TOML document ``text``: where its table
    header, key or array element starts.  A table made implicitly (``[a.b]`` makes ``a``) has
    the line where it is first named."""
    scan = _Scan(text)
    try:
        scan.document()
    except (IndexError, ValueError, tomllib.TOMLDecodeError):  # not valid TOML after all
        pass
    return scan.lines


def line_of(lines: dict[KeyPath, int], path: KeyPath) -> int:
    """The line of ``path``, else of its longest prefix in ``lines`` (a missing key: the table
    it is missing from); 1, the document itself, if none is."""
    for end in range(len(path), 0, -1):
        line = lines.get(path[:end])
        if line is not None:
            return line
    return 1


class _Scan:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.lines: dict[KeyPath, int] = {}
        #: The length so far of each array of tables (``[[cards]]``), by its path.
        self.arrays: dict[KeyPath, int] = {}

    def document(self) -> None:
        table: KeyPath = ()
        while True:
            self.skip(newlines=True)
            if self.pos >= len(self.text):
                return
            if self.text[self.pos] == "[":
                table = self.header()
            else:
                self.pair(table)

    def skip(self, *, newlines: bool) -> None:
        """Whitespace and comments (and line ends, if ``newlines``)."""
        text = self.text
        while self.pos < len(text):
            char = text[self.pos]
            if char in " \t\r":
                self.pos += 1
            elif char == "\n" and newlines:
                self.pos += 1
                self.line += 1
            elif char == "#":
                end = text.find("\n", self.pos)
                self.pos = len(text) if end < 0 else end
            else:
                return

    def header(self) -> KeyPath:
        """``[a.b]`` or ``[[a.b]]``: the path of the table it starts."""
        many = self.text.startswith("[[", self.pos)
        self.pos += 2 if many else 1
        keys = self.keys()
        self.pos += 2 if many else 1
        path: KeyPath = ()
        for key in keys[:-1]:  # through the latest element of each array of tables named
            path += (key,)
            if path in self.arrays:
                path += (self.arrays[path] - 1,)
            self.lines.setdefault(path, self.line)
        path += (keys[-1],)
        if many:
            self.lines.setdefault(path, self.line)
            index = self.arrays.get(path, 0)
            self.arrays[path] = index + 1
            path += (index,)
        self.lines[path] = self.line
        return path

    def keys(self) -> list[str]:
        """A dotted key, up to (not including) the ``=`` or ``]`` after it."""
        keys = []
        while True:
            self.skip(newlines=False)
            keys.append(self.key())
            self.skip(newlines=False)
            if self.text[self.pos] != ".":
                return keys
            self.pos += 1

    def key(self) -> str:
        if self.text[self.pos] in "\"'":
            start = self.pos
            self.string()
            # a quoted key's value, escapes and all, as tomllib reads it
            return str(tomllib.loads("k = " + self.text[start:self.pos])["k"])
        match = _BARE_KEY.match(self.text, self.pos)
        if match is None:
            raise ValueError(f"no key at offset {self.pos}")
        self.pos = match.end()
        return match[0]

    def pair(self, table: KeyPath) -> None:
        """``key = value`` in ``table`` (or in an inline table at ``table``)."""
        line = self.line
        path = table
        for key in self.keys():
            path += (key,)
            self.lines.setdefault(path, line)
        self.pos += 1  # "="
        self.value(path)

    def value(self, path: KeyPath) -> None:
        self.skip(newlines=False)
        char = self.text[self.pos]
        if char == "{":
            self.pos += 1
            while self.next_item("}"):
                self.pair(path)
        elif char == "[":
            self.pos += 1
            index = 0
            while self.next_item("]"):
                self.lines.setdefault(path + (index,), self.line)
                self.value(path + (index,))
                index += 1
        elif char in "\"'":
            self.string()
        else:  # a number, boolean or date (a date may hold a space)
            match = _SCALAR_END.search(self.text, self.pos)
            end = len(self.text) if match is None else match.start()
            if end == self.pos:  # no value here: not valid TOML (every step must move on)
                raise ValueError(f"no value at offset {self.pos}")
            self.pos = end

    def next_item(self, close: str) -> bool:
        """Past separators to the next item of an array or inline table; False at its end."""
        while True:
            self.skip(newlines=True)
            char = self.text[self.pos]
            if char == close:
                self.pos += 1
                return False
            if char != ",":
                return True
            self.pos += 1

    def string(self) -> None:
        """Past a basic or literal string, one-line or multi-line."""
        text = self.text
        quote = text[self.pos]
        delimiter = quote * 3 if text.startswith(quote * 3, self.pos) else quote
        end = self.pos + len(delimiter)
        while not text.startswith(delimiter, end):
            end += 2 if text[end] == "\\" and quote == '"' else 1
        end += len(delimiter)
        if len(delimiter) == 3:  # up to two quotes right before the delimiter are content
            extra = 0
            while extra < 2 and end < len(text) and text[end] == quote:
                end += 1
                extra += 1
        self.line += text.count("\n", self.pos, end)
        self.pos = end
