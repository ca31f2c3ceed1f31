"""A few file tools, the shape of LangChain's file-management toolkit, working in the current
directory. Their documentation does not say that paths are relative, that folders must exist, or
that `size_of` wants a file and not a folder."""

from __future__ import annotations

import os
import shutil


def write_file(file_path: str, text: str, append: bool = False) -> str:
    """Write text to a file."""
    with open(file_path, "a" if append else "w", encoding="utf-8") as fh:
        fh.write(text)
    return f"wrote {len(text)} characters to {file_path}"


def read_file(file_path: str) -> str:
    """Read a file from disk."""
    with open(file_path, encoding="utf-8") as fh:
        return fh.read()


def list_directory(dir_path: str = ".") -> str:
    """List the files in a folder."""
    return "\n".join(sorted(os.listdir(dir_path))) or "(empty)"


def copy_file(source_path: str, destination_path: str) -> str:
    """Copy a file."""
    shutil.copyfile(source_path, destination_path)
    return f"copied {source_path} to {destination_path}"


def size_of(file_path: str) -> str:
    """Tell the size of a file in a human unit."""
    size = os.stat(file_path).st_size
    units = ["B", "KB", "MB", "GB"]
    i = int(size and (len(str(size)) - 1) // 3)
    return f"{size / 1000 ** i:.1f} {units[i]}"
