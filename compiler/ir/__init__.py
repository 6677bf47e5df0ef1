"""Compiler IR: values, ops, blocks, regions, types, attributes."""
