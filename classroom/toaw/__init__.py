"""toaw"""
