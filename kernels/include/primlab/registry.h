// The registry of algorithms (filled in by the foundation work).
#pragma once
