// EventHeap: the timed engine's queue of pending events, a drop-in for std::priority_queue's
// push / top / pop / empty with the smallest key on top. Each entry carries its key as one
// 128-bit unsigned integer (KeyOf maps an event to it, order-preserving), so a comparison is two
// machine compares without branches; the heap is 4-ary, half the depth of a binary one (~4
// levels for the ~400 programs of an H100 replay). Why: the binary heap of three-field
// comparisons was ~45 % of the timed engine's instructions (callgrind, 4096^3).
// Determinism: events with different keys come out in key order whatever the heap's shape, so
// the result is that of any other priority queue as long as no two pending events share a key
// (the timed engine's keys are unique except for stale entries that do nothing: timed_run.hpp).
#pragma once

#include <cstddef>
#include <vector>

namespace tilesim::sim {

template <class T, class KeyOf>
class EventHeap {
 public:
  using Key = unsigned __int128;

  bool empty() const { return m_nodes.empty(); }
  std::size_t size() const { return m_nodes.size(); }
  const T& top() const { return m_nodes.front().value; }

  void push(const T& v) {
    Node n{KeyOf{}(v), v};
    std::size_t i = m_nodes.size();
    m_nodes.push_back(n);
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!(n.key < m_nodes[parent].key)) break;
      m_nodes[i] = m_nodes[parent];
      i = parent;
    }
    m_nodes[i] = n;
  }

  void pop() {
    const Node last = m_nodes.back();
    m_nodes.pop_back();
    const std::size_t size = m_nodes.size();
    if (size == 0) return;
    // Sift the last node down from the root: at each level the smallest of up to 4 children.
    std::size_t i = 0;
    for (;;) {
      const std::size_t first = i * kArity + 1;
      if (first >= size) break;
      std::size_t best = first;
      const std::size_t end = first + kArity < size ? first + kArity : size;
      for (std::size_t c = first + 1; c < end; ++c)
        best = m_nodes[c].key < m_nodes[best].key ? c : best;
      if (!(m_nodes[best].key < last.key)) break;
      m_nodes[i] = m_nodes[best];
      i = best;
    }
    m_nodes[i] = last;
  }

 private:
  static constexpr std::size_t kArity = 4;
  struct Node {
    Key key;
    T value;
  };
  std::vector<Node> m_nodes;
};

}  // namespace tilesim::sim
