// tensim: the compute API's reconfiguration sentinel; tensim checks nothing here, so the header is empty.
#pragma once
